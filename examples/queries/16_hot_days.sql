-- Hot days: how many days each station passed 30 °C (missing readings never count).
SELECT station_label AS station, count(*) AS days_above_30
  FROM temperature
 WHERE value > 30
 GROUP BY station
 ORDER BY days_above_30 DESC, station
 LIMIT 8;
