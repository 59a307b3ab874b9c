-- Anomalies: the days furthest from their station's annual mean, joining
-- the cells with the per-station means of the aggregate table.
SELECT t.time_label AS day, t.station_label AS station,
       round(t.value, 1) AS temp_c, round(a.mean, 2) AS annual_mean_c,
       round(t.value - a.mean, 2) AS anomaly_c
  FROM temperature AS t
  JOIN temperature_agg('station') AS a ON a.station = t.station
 ORDER BY abs(t.value - a.mean) DESC, day, station
 LIMIT 10;
