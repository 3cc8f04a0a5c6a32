package io.jdbcrepl.apply;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.config.KeyScheme;
import io.jdbcrepl.config.PeerConfig;
import io.jdbcrepl.config.ReplUrl;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.log.ChangeLogSchema;
import io.jdbcrepl.log.DriverSchema;
import io.jdbcrepl.log.SourceReader;
import io.jdbcrepl.log.SourceReaders;
import io.jdbcrepl.node.Node;
import io.jdbcrepl.node.TableCatalog;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;

/** Connections to a peer's database (plain JDBC, {@code repl.peer.<peer>.*}) and the reader on one. */
public final class Peers {

    private Peers() {
    }

    public static Dialect dialect(PeerConfig peer) throws SQLException {
        return Dialect.forUrl(peer.url());
    }

    /** A connection to the peer whose connect and every read give up after {@code timeout} (repl.peer.timeout). */
    public static Connection open(PeerConfig peer, Duration timeout) throws SQLException {
        Properties p = new Properties();
        if (peer.user() != null) p.setProperty("user", peer.user());
        if (peer.password() != null) p.setProperty("password", peer.password());
        timeouts(dialect(peer), timeout, p);
        try {
            return DriverManager.getConnection(peer.url(), p);
        } catch (SQLException e) {
            throw new SQLException("Peer " + peer.name() + " (" + ReplUrl.mask(peer.url()) + ") is unreachable: "
                    + e.getMessage(), e.getSQLState() == null ? SqlState.UNABLE_TO_CONNECT.code() : e.getSQLState(), e);
        }
    }

    /**
     * The vendor driver's connect and socket timeouts ({@link ApplySql#peerTimeouts}), unless the
     * peer's URL sets its own. A socket timeout also bounds every statement: a peer that holds a
     * statement (a lock wait, a black-holed network) breaks the connection after it.
     */
    static void timeouts(Dialect dialect, Duration timeout, Properties p) {
        dialect.part(ApplySql.class).peerTimeouts(timeout, p);
    }

    /** The peer's current schema (MariaDB: database): its application's tables, which map to this node's. */
    static String homeSchema(Connection source, Dialect dialect) throws SQLException {
        return TableCatalog.currentSchema(source, dialect);
    }

    /**
     * The schema of the peer's driver tables, where its {@code repl_log} is: {@code
     * repl.peer.<peer>.schema}, else the rule of {@code repl.schema} on the peer's database: its
     * default there ({@code repl}, {@code <peer database>_repl}) when this node's is not set; the
     * peer's current schema when this node's names its own current schema (the log beside the
     * application's tables); else the same name.
     */
    static String logSchema(PeerConfig peer, Connection source, Dialect dialect, Node node) throws SQLException {
        if (peer.schema() != null) return dialect.fold(peer.schema());
        String configured = node.config().schema().orElse(null);
        if (configured != null && node.logSchema().equals(node.homeSchema())) return homeSchema(source, dialect);
        return DriverSchema.resolve(dialect, configured, source);
    }

    /**
     * A connected reader of a peer's log, with the peer's dialect, driver schema and current schema,
     * and the key scheme the peer records (SPEC 8.2), read when it connected.
     */
    record Source(SourceReader reader, Dialect dialect, String logSchema, String homeSchema,
            Optional<KeyScheme> keys) implements AutoCloseable {
        @Override
        public void close() {
            reader.close();
        }
    }

    /** Connects to the peer and opens a reader of its log (where it pages: {@code page} transactions per batch). */
    static Source connect(PeerConfig peer, int page, Node node) throws SQLException {
        Dialect dialect = dialect(peer);
        Connection source = open(peer, node.config().peerTimeout());
        try {
            String schema = logSchema(peer, source, dialect, node);
            ChangeLogSchema log = new ChangeLogSchema(dialect, schema);
            // before the reader: a refused read (an older peer without repl_keys) must not spoil its transaction
            Optional<KeyScheme> keys = KeyCheck.recorded(source, log, peer.name());
            SourceReader reader = dialect.part(SourceReaders.class).open(source, dialect, log, page, node.config().logSignature());
            return new Source(reader, dialect, schema, homeSchema(source, dialect), keys);
        } catch (SQLException e) {
            source.close();
            throw e;
        }
    }
}
