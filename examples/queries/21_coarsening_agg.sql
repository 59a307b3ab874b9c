-- The same question as 18_coarsening, with the aggregate table's coarsening by: the same rows as
-- 18_coarsening.csv.
SELECT time AS block, lat AS band, count AS n, round(mean, 2) AS mean_hpa
  FROM pressure_agg('time/30,lat/6')
 ORDER BY block, band
 LIMIT 8;
