-- files: testdata/era5_monthly/**/*.tet
-- The same monthly means from the cells table, row by row through SQLite:
-- the expected output is a copy of 24_glob_monthly_means.csv.
SELECT month, count(value) AS count, round(avg(value), 4) AS mean
  FROM t2m
 WHERE lat_label >= 45
 GROUP BY month
 ORDER BY month;
