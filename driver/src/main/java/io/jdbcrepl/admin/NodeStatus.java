package io.jdbcrepl.admin;

import java.util.List;

/**
 * A node's apply status: one entry per peer it applies from, the subscribers of its own log
 * that were dropped after {@code repl.retention} of silence (SPEC 4.5), and the replicated tables
 * without primary or substitute key, replicated by every comparable column (SPEC 3.3), as
 * {@code schema.table}.
 */
public record NodeStatus(String node, List<PeerStatus> peers, List<String> droppedSubscribers, List<String> keylessTables) {

    public NodeStatus {
        peers = List.copyOf(peers);
        droppedSubscribers = List.copyOf(droppedSubscribers);
        keylessTables = List.copyOf(keylessTables);
    }
}
