package io.jdbcrepl.spring;

import io.jdbcrepl.api.NodeStatus;
import io.jdbcrepl.api.PeerStatus;
import org.springframework.boot.actuate.health.Health;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A node's health from its status (SPEC 8.5). DOWN when, for some peer, nothing applies its changes
 * here until an operator acts: the applier is {@code STOPPED}, {@code DROPPED} (this node was
 * dropped as the peer's subscriber), {@code REWOUND}, or {@code NOT_RUNNING} (no applier in this JVM
 * nor in another process); or when the lag is above {@code jdbc-repl.health.lag}. The states the
 * applier leaves by itself stay UP, with the state in the details: {@code STARTING}, {@code JOINING}
 * (its lag, the peers' whole logs until the join ends, makes a joining node DOWN until it has caught up),
 * {@code STANDBY} (another process applies), {@code PAUSED} (a passing failure here, retried) and
 * {@code UNREACHABLE} (the peer is down or cut off: a dead peer must not take the nodes that survive
 * it out of service; its lag is unknown then, and its metrics and status show it).
 */
final class ReplHealth {

    static final Set<String> DOWN_STATES = Set.of("STOPPED", "DROPPED", "REWOUND", "NOT_RUNNING");

    private ReplHealth() {
    }

    static Health of(NodeStatus status, Duration lagLimit) {
        List<String> problems = new ArrayList<>();
        Map<String, Object> peers = new LinkedHashMap<>();
        for (PeerStatus p : status.peers()) {
            if (DOWN_STATES.contains(p.state())) {
                problems.add(p.peer() + ": applier " + p.state());
            } else if (p.lagSeconds() > lagLimit.toSeconds()) {
                problems.add(p.peer() + ": lag " + p.lagSeconds() + "s above " + lagLimit.toSeconds() + "s");
            }
            peers.put(p.peer(), details(p));
        }
        Health.Builder health = problems.isEmpty() ? Health.up() : Health.down();
        health.withDetail("node", status.node()).withDetail("peers", peers);
        if (!problems.isEmpty()) health.withDetail("problems", problems);
        if (!status.droppedSubscribers().isEmpty()) health.withDetail("droppedSubscribers", status.droppedSubscribers());
        if (status.purgeBlocked() != null) health.withDetail("purgeBlocked", status.purgeBlocked());
        return health.withDetail("lagLimitSeconds", lagLimit.toSeconds()).build();
    }

    private static Map<String, Object> details(PeerStatus p) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("state", p.state());
        d.put("lagSeconds", p.lagSeconds());
        d.put("lagTransactions", p.lagTransactions());
        d.put("queueDepth", p.queueDepth());
        d.put("errorCount", p.errorCount());
        d.put("secondsSinceApplied", p.secondsSinceApplied());
        if (p.lastError() != null) d.put("lastError", p.lastError());
        if (p.subscribeDenied() != null) d.put("subscribeDenied", p.subscribeDenied());
        return d;
    }
}
