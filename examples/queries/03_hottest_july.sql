-- The five warmest stations in July, from the cells table.
SELECT station_label AS station, round(avg(value), 2) AS mean_c, round(max(value), 1) AS max_c
  FROM temperature
 WHERE time_label BETWEEN '2024-07-01' AND '2024-07-31'
 GROUP BY station
 ORDER BY mean_c DESC
 LIMIT 5;
