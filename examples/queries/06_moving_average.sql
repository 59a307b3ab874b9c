-- A window function over the time axis: 7-day moving average in Oslo.
SELECT time_label AS day,
       value AS temp_c,
       round(avg(value) OVER (ORDER BY time ROWS BETWEEN 6 PRECEDING AND CURRENT ROW), 2) AS avg_7d
  FROM temperature
 WHERE station_label = 'Oslo' AND time_label BETWEEN '2024-03-01' AND '2024-03-14'
 ORDER BY time;
