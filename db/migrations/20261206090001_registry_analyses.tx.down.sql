DROP TABLE registry_analyses;
