-- A slice by labels: one station's first week of 2024.
SELECT time_label AS day, value AS temp_c
  FROM temperature
 WHERE station_label = 'Oslo'
   AND time_label BETWEEN '2024-01-01' AND '2024-01-07'
 ORDER BY day;
