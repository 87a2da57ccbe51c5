"""Tests of the Food Chain Magnate engine."""
