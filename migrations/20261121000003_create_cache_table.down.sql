DROP TABLE cache;
