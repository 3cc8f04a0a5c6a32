package io.jdbcrepl.it.apply.handlers;

import io.jdbcrepl.api.DmlContext;
import io.jdbcrepl.api.DmlHandler;
import java.sql.SQLException;

/** A DML handler that refuses every LCR: its transaction goes to the error queue. */
public class Refuse implements DmlHandler {

    @Override
    public void handle(DmlContext context) throws SQLException {
        throw new SQLException("refused by the test's handler", "45000");
    }
}
