-- NaN reads as NULL: find the missing readings.
SELECT station_label AS station, time_label AS day
  FROM temperature
 WHERE value IS NULL
 ORDER BY station, day;
