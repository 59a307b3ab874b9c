"""Reads the bundled year of monthly files into Spark through tetsql.

Run from the repository root with tetsql on PATH (go install ./cmd/tetsql):
    PYTHONPATH=examples/spark python3 examples/spark/example.py
"""
from pyspark.sql import SparkSession
from pyspark.sql import functions as F

from tet_datasource import TetDataSource

spark = SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false").getOrCreate()
spark.sparkContext.setLogLevel("ERROR")
spark.dataSource.register(TetDataSource)

df = (spark.read.format("tet")
      .option("path", "testdata/era5_monthly/**/*.tet")
      .option("dataset", "t2m")
      .option("where", "lat_label >= 45")  # run by tetsql: only these rows leave it
      .load())
df.printSchema()
print("partitions:", df.rdd.getNumPartitions())
df.where("month IN ('06', '07', '08')").groupBy("month") \
    .agg(F.count("*").alias("n"), F.round(F.avg("value"), 4).alias("mean")).orderBy("month").show()
spark.stop()
