-- Coarsening: 30-day means of the pressure field over 60° latitude bands
-- (6 grid rows of 10°), the first two 30-day blocks.
SELECT time / 30 AS block, lat / 6 AS band, count(value) AS n, round(avg(value), 2) AS mean_hpa
  FROM pressure
 GROUP BY block, band
 ORDER BY block, band
 LIMIT 8;
