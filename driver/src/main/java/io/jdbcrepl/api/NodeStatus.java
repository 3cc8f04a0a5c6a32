package io.jdbcrepl.api;

import java.util.List;

/**
 * A node's apply status: one entry per peer it applies from, the subscribers of its own log
 * that were dropped after {@code repl.retention} of silence (SPEC 4.5), and the replicated tables
 * without primary or substitute key, replicated by every comparable column (SPEC 3.3), as
 * {@code schema.table}; and {@code purgeBlocked}: null, or why this node's log is not purged (a peer in
 * {@code repl.peers} that has never recorded its position here, or this node's user may not delete from
 * the log); {@code keyWarnings} (SPEC 8.2): without a key scheme, the replicated tables whose keys
 * the database generates; with one, the sequences that do not hand out only this node's keys, and
 * peers whose scheme collides with this node's.
 */
public record NodeStatus(String node, List<PeerStatus> peers, List<String> droppedSubscribers, List<String> keylessTables,
        String purgeBlocked, List<String> keyWarnings) {

    public NodeStatus {
        peers = List.copyOf(peers);
        droppedSubscribers = List.copyOf(droppedSubscribers);
        keylessTables = List.copyOf(keylessTables);
        keyWarnings = List.copyOf(keyWarnings);
    }

    /** A status without key warnings (as before SPEC 8.2). */
    public NodeStatus(String node, List<PeerStatus> peers, List<String> droppedSubscribers, List<String> keylessTables,
            String purgeBlocked) {
        this(node, peers, droppedSubscribers, keylessTables, purgeBlocked, List.of());
    }
}
