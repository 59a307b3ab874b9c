-- Percentiles: each station's 90th percentile of daily temperature, exact
-- and interpolated linearly between the two nearest order statistics
-- (numpy's default, DuckDB's quantile_cont), in plain SQL with window
-- functions. Missing readings (NaN, NULL in SQL) are left out.
WITH ranked AS (
  SELECT station_label AS station, value,
         row_number() OVER (PARTITION BY station ORDER BY value) - 1 AS i,
         count(*) OVER (PARTITION BY station) AS n
    FROM temperature
   WHERE value IS NOT NULL
), pos AS (
  SELECT station, value, i, n, 0.9 * (n - 1) AS h FROM ranked
)
SELECT station,
       round(max(CASE WHEN i = CAST(h AS INTEGER) THEN value END)
         + (h - CAST(h AS INTEGER))
         * (coalesce(max(CASE WHEN i = CAST(h AS INTEGER) + 1 THEN value END),
                     max(CASE WHEN i = CAST(h AS INTEGER) THEN value END))
            - max(CASE WHEN i = CAST(h AS INTEGER) THEN value END)), 2) AS p90_c
  FROM pos
 GROUP BY station
 ORDER BY p90_c DESC, station
 LIMIT 8;
