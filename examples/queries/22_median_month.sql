-- The median pressure of each 30-day block over the whole globe, next to
-- its mean (median with coarsening): checked against the plain-SQL reference 23_median_month_reference.sql.
SELECT time AS block, round(median, 2) AS median_hpa, round(mean, 2) AS mean_hpa
  FROM pressure_agg('time/30')
 ORDER BY block
 LIMIT 4;
