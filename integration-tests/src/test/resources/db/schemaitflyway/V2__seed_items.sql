INSERT INTO shop_item (id, name) VALUES (1, 'pen');
INSERT INTO shop_item (id, name) VALUES (2, 'ink');
UPDATE shop_item SET name = 'blue ink' WHERE id = 2;
