package io.jdbcrepl.intercept;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/** One execution of a statement, as the application asked for it. */
public interface Execution {

    /** The application's SQL (not a rewrite). */
    String sql();

    StatementKind kind();

    ExecuteMethod method();

    /** The generated-keys request of this execution (plain) or of the prepare (prepared). */
    GeneratedKeys generatedKeys();

    /** The real driver's statement this execution runs on. */
    Statement statement();

    /** The real driver's connection. */
    Connection connection();

    /**
     * The application's connection (the proxy): what runs on it goes through every interceptor, as if
     * the application had run it (a staged load inserts its rows this way, captured).
     */
    Connection applicationConnection();

    /** The bound parameters in order of index, when the interceptor asked for them; else empty. */
    List<BoundParameter> parameters();

    /** Runs the real driver's call as the application made it and returns its result. */
    Object proceed() throws SQLException;
}
