package io.jdbcrepl.apply;

import io.jdbcrepl.capture.sql.Dialect;
import io.jdbcrepl.config.PeerConfig;
import io.jdbcrepl.config.ReplUrl;
import io.jdbcrepl.log.ChangeLogSchema;
import io.jdbcrepl.node.TableCatalog;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/** Connections to a peer's database (plain JDBC, {@code repl.peer.<peer>.*}) and the reader on one. */
public final class Peers {

    private Peers() {
    }

    public static Dialect dialect(PeerConfig peer) {
        String url = peer.url();
        int end = url.indexOf(':', 5);
        if (!url.startsWith("jdbc:") || end < 0) throw new IllegalArgumentException("Not a JDBC URL: " + ReplUrl.mask(url));
        return Dialect.fromSubprotocol(url.substring(5, end));
    }

    public static Connection open(PeerConfig peer) throws SQLException {
        Properties p = new Properties();
        if (peer.user() != null) p.setProperty("user", peer.user());
        if (peer.password() != null) p.setProperty("password", peer.password());
        try {
            return DriverManager.getConnection(peer.url(), p);
        } catch (SQLException e) {
            throw new SQLException("Peer " + peer.name() + " (" + ReplUrl.mask(peer.url()) + ") is unreachable: "
                    + e.getMessage(), e.getSQLState() == null ? "08001" : e.getSQLState(), e);
        }
    }

    /** The driver schema of the peer: its connection's current schema, where its repl_log lives. */
    static String schema(Connection source, Dialect dialect) throws SQLException {
        return TableCatalog.currentSchema(source, dialect);
    }

    /** A connected reader of a peer's log, with the peer's dialect and driver schema. */
    record Source(SourceReader reader, Dialect dialect, String schema) {
    }

    /** Connects to the peer and opens a reader of its log (MariaDB/H2: {@code page} transactions per batch). */
    static Source connect(PeerConfig peer, int page) throws SQLException {
        Dialect dialect = dialect(peer);
        Connection source = open(peer);
        try {
            String schema = schema(source, dialect);
            ChangeLogSchema log = new ChangeLogSchema(dialect, schema);
            SourceReader reader = dialect == Dialect.POSTGRESQL ? new PgSourceReader(source, log)
                    : new EpochSourceReader(source, dialect, log, page);
            return new Source(reader, dialect, schema);
        } catch (SQLException e) {
            source.close();
            throw e;
        }
    }
}
