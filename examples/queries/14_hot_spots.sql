-- Hot spots: the ten hottest station-days of the year (ties broken by day, then station).
SELECT time_label AS day, station_label AS station, value AS temp_c
  FROM temperature
 ORDER BY value DESC, time, station
 LIMIT 10;
