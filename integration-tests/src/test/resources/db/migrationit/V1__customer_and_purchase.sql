CREATE TABLE customer (id INT PRIMARY KEY, name VARCHAR(40) NOT NULL, legacy_code VARCHAR(10));
CREATE TABLE purchase (id INT PRIMARY KEY, customer_id INT NOT NULL, amount DECIMAL(10,2) NOT NULL);
INSERT INTO customer (id, name, legacy_code) VALUES (1, 'Ada', 'A1');
