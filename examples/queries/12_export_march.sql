-- Export-style: every March reading of three stations, in long format.
SELECT time_label AS day, station_label AS station, value AS temp_c
  FROM temperature
 WHERE station_label IN ('Oslo', 'Nairobi', 'Sydney')
   AND time_label >= '2024-03-01' AND time_label < '2024-03-06'
 ORDER BY day, station;
