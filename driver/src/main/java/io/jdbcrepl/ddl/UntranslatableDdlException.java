package io.jdbcrepl.ddl;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.intercept.SqlState;

import java.sql.SQLException;

/**
 * A DDL statement of one database that another cannot be given: the message names the part that
 * cannot be translated, both databases, and what to do. SQLState {@code 0AR01} ({@link SqlState#REFUSED},
 * class 0A, feature not supported), not {@code 0A000}, which pools read as a broken connection.
 */
public class UntranslatableDdlException extends SQLException {

    public UntranslatableDdlException(String part, Dialect from, Dialect to) {
        super("cannot translate DDL from " + from.product() + " to " + to.product() + ": " + part
                + "; run the equivalent statement on that " + to.product() + " peer yourself, then `errors retry`"
                + " (or `errors delete`) the queued transaction", SqlState.REFUSED.code());
    }
}
