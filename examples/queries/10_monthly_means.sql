-- Monthly means of one station, grouping date labels by month.
SELECT substr(time_label, 1, 7) AS month, round(avg(value), 2) AS mean_c, count(value) AS days
  FROM temperature
 WHERE station_label = 'Lagos'
 GROUP BY month
 ORDER BY month;
