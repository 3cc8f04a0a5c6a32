CREATE INDEX purchase_customer ON purchase (customer_id);
