package io.jdbcrepl.keys;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * What SPEC 8.2 reads and changes differently per database: where keys are generated, how a
 * generator stands, and the statement that restarts it. A part ({@code dialect.part(KeySql.class)}).
 */
public interface KeySql {

    /**
     * Every generated-key column of the application's tables (not those of {@code driverSchema}), and
     * every sequence no column names; MariaDB/MySQL: of the current database.
     */
    List<KeySource> sources(Connection connection, String driverSchema) throws SQLException;

    /**
     * How the source's generator stands; empty for one the session arranges
     * ({@link io.jdbcrepl.node.KeySession}: AUTO_INCREMENT).
     */
    Optional<SequenceState> state(Connection connection, KeySource source) throws SQLException;

    /** The statement that makes the generator step by {@code increment} from {@code start}. */
    String restart(KeySource source, long increment, long start);

    /**
     * Whether the table has a {@code GENERATED ALWAYS} identity column: an INSERT that gives it a value
     * (apply writes the source's keys) needs {@code OVERRIDING SYSTEM VALUE}. None by default.
     */
    default boolean alwaysIdentity(Connection connection, String schema, String table) throws SQLException {
        return false;
    }
}
