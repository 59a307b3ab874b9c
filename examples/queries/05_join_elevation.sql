-- Join two datasets on their shared station axis: are high stations colder?
SELECT CASE WHEN e.value >= 1000 THEN 'high (>= 1000 m)'
            WHEN e.value >= 200 THEN 'middle (200-999 m)'
            ELSE 'low (< 200 m)' END AS band,
       count(DISTINCT t.station) AS stations,
       round(avg(t.value), 2) AS mean_c
  FROM temperature t
  JOIN elevation e ON e.station = t.station
 GROUP BY band
 ORDER BY mean_c;
