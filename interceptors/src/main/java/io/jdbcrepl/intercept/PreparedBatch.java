package io.jdbcrepl.intercept;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/** A prepared statement's batch: one parameter set per {@code addBatch()}, in order. */
public interface PreparedBatch {

    /** The application's SQL (not a rewrite). */
    String sql();

    /** The parameter sets when the interceptor asked for parameters; else one empty list per entry. */
    List<List<BoundParameter>> parameterSets();

    /** {@code true} for {@code executeLargeBatch}. */
    boolean large();

    PreparedStatement statement();

    Connection connection();

    /** Runs the real driver's batch. */
    long[] proceed() throws SQLException;
}
