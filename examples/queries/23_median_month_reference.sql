-- Reference for 22_median_month.sql in plain SQL (exact median: the mean
-- of the two middle values when the count is even).
WITH r AS (
  SELECT time / 30 AS block, value,
         row_number() OVER (PARTITION BY time / 30 ORDER BY value) AS i,
         count(*) OVER (PARTITION BY time / 30) AS n
    FROM pressure
   WHERE time < 120 AND value IS NOT NULL
)
SELECT block, round(avg(CASE WHEN i IN ((n + 1) / 2, n / 2 + 1) THEN value END), 2) AS median_hpa,
       round(avg(value), 2) AS mean_hpa
  FROM r
 GROUP BY block
 ORDER BY block;
