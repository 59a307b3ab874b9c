-- Day-over-day changes with LAG: the five largest jumps of the year.
SELECT station, day, round(delta, 1) AS delta_c
  FROM (SELECT station_label AS station, time_label AS day,
               value - lag(value) OVER (PARTITION BY station ORDER BY time) AS delta
          FROM temperature)
 WHERE delta IS NOT NULL
 ORDER BY abs(delta) DESC, station
 LIMIT 5;
