package io.jdbcrepl.intercept;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/** How the application asked to prepare a statement, to be done with the same options or others. */
public interface PrepareRequest {

    /** The application's SQL. */
    String sql();

    StatementKind kind();

    GeneratedKeys generatedKeys();

    /** The real driver's connection. */
    Connection connection();

    /** Prepares {@code sql} on the real connection with every option the application gave. */
    PreparedStatement prepare(String sql) throws SQLException;
}
