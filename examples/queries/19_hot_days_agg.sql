-- The same question as 16_hot_days, with the value predicate inside the aggregate table (HIDDEN
-- column value): the same rows as 16_hot_days.csv.
SELECT station_label AS station, count AS days_above_30
  FROM temperature_agg('station')
 WHERE value > 30
 ORDER BY days_above_30 DESC, station
 LIMIT 8;
