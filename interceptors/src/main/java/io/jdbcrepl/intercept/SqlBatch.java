package io.jdbcrepl.intercept;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/** A plain statement's batch: the SQL texts added with {@code addBatch(String)}, in order. */
public interface SqlBatch {

    List<String> sql();

    /** {@code true} for {@code executeLargeBatch}. */
    boolean large();

    Statement statement();

    Connection connection();

    /** Runs the real driver's batch. */
    long[] proceed() throws SQLException;
}
