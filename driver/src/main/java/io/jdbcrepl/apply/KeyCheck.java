package io.jdbcrepl.apply;

import io.jdbcrepl.config.KeyScheme;
import io.jdbcrepl.config.PeerConfig;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.keys.KeyArrangement;
import io.jdbcrepl.log.ChangeLogSchema;
import io.jdbcrepl.log.Grants;
import io.jdbcrepl.log.NodeKeys;
import io.jdbcrepl.node.Node;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;

/**
 * SPEC 8.2, two nodes with the same offset: detected where both are visible, by the applier of
 * each from the other (and by {@code status}), from the peer's {@code repl_keys} row. The applier
 * stops before it applies anything (SQLState 55000): keys both nodes hand out would collide at
 * every insert.
 */
final class KeyCheck {

    private KeyCheck() {
    }

    /**
     * Why this node's key scheme and the peer's collide, or null when they do not or the peer records
     * none (an older driver, a reader not allowed to see {@code repl_keys}, a peer not yet started).
     */
    static String clash(Node node, PeerConfig peer) throws SQLException {
        if (node.config().keyScheme().isEmpty()) return null;
        Dialect dialect = Peers.dialect(peer);
        try (Connection source = Peers.open(peer, node.config().peerTimeout())) {
            ChangeLogSchema log = new ChangeLogSchema(dialect, Peers.logSchema(peer, source, dialect, node));
            return clash(node, peer.name(), recorded(source, log, peer.name()));
        }
    }

    /** As {@link #clash(Node, PeerConfig)}, with the peer's scheme already read. */
    static String clash(Node node, String peer, Optional<KeyScheme> theirs) {
        return KeyArrangement.clash(node.name(), node.config().keyScheme(), peer, theirs);
    }

    /** The scheme the peer records; empty also where its driver has no repl_keys or its reader may not read it. */
    static Optional<KeyScheme> recorded(Connection source, ChangeLogSchema log, String peer) throws SQLException {
        try {
            return new NodeKeys(log).read(source, peer);
        } catch (SQLException e) {
            if (Grants.denied(e) || Applier.missingTable(e)) return Optional.empty();
            throw e;
        }
    }
}
