-- A box of the 3-D pressure field on one day: Europe, 30..60 N, 0..30 E.
-- The degree labels are numbers, so lat_label and lon_label are INTEGER
-- columns and the ranges on them select the box's chunks.
SELECT lat_label AS lat, lon_label AS lon, round(value, 1) AS hpa
  FROM pressure
 WHERE time_label = '2024-01-15'
   AND lat_label BETWEEN 30 AND 60
   AND lon_label BETWEEN 0 AND 30
 ORDER BY lat, lon;
