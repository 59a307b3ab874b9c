-- The aggregate table: summer mean and spread per station, folded in Go.
SELECT station_label AS station, count, round(mean, 2) AS mean_c, round(std, 2) AS std_c
  FROM temperature_agg('station')
 WHERE time_label BETWEEN '2024-06-01' AND '2024-08-31'
 ORDER BY std DESC
 LIMIT 5;
