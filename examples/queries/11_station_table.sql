-- Pivot a small 2-D dataset into a station table, joined with elevation.
SELECT l.station_label AS station,
       max(CASE WHEN l.coord_label = 'lat' THEN l.value END) AS lat,
       max(CASE WHEN l.coord_label = 'lon' THEN l.value END) AS lon,
       e.value AS elevation_m
  FROM location l
  JOIN elevation e ON e.station = l.station
 GROUP BY l.station
 ORDER BY elevation_m DESC
 LIMIT 5;
