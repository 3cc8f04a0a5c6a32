package io.jdbcrepl.it.apply.handlers;

import io.jdbcrepl.api.DmlContext;
import io.jdbcrepl.api.DmlHandler;
import io.jdbcrepl.lcr.ValueType;
import java.sql.SQLException;

/**
 * An error handler (SPEC 5.4) for an error that is not a conflict: a note without a body, where
 * the destination requires one, gets "error &lt;SQLState&gt;" (plus " conflict" if it was given
 * a conflict, which it should not be) as its body and is applied.
 */
public class FillBody implements DmlHandler {

    @Override
    public void handle(DmlContext context) throws SQLException {
        if (context.error() == null) throw new SQLException("FillBody expects the error that failed the LCR", "45000");
        String body = "error " + context.error().getSQLState() + (context.conflict() == null ? "" : " conflict");
        context.lcr().newValues().put("body", ValueType.STRING, body);
        context.execute(false);
    }
}
