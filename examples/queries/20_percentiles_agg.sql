-- The same question as 17_percentiles, with the aggregate table's quantile column (q = 0.9 as
-- the second argument): the same rows as 17_percentiles.csv.
SELECT station_label AS station, round(quantile, 2) AS p90_c
  FROM temperature_agg('station', 0.9)
 ORDER BY p90_c DESC, station
 LIMIT 8;
