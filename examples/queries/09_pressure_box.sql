-- A box of the 3-D pressure field on one day: Europe, 30..60 N, 0..30 E.
SELECT lat_label AS lat, lon_label AS lon, round(value, 1) AS hpa
  FROM pressure
 WHERE time_label = '2024-01-15'
   AND lat BETWEEN 12 AND 15
   AND lon BETWEEN 18 AND 21
 ORDER BY lat, lon;
