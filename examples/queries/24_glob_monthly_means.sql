-- files: testdata/era5_monthly/**/*.tet
-- A year of monthly files as one table: the mean of the northern band per
-- month, grouped by the hive key month of the paths (year=2024/month=MM/).
SELECT month, count, round(mean, 4) AS mean
  FROM t2m_agg
 WHERE by = 'month' AND lat_label >= 45
 ORDER BY month;
