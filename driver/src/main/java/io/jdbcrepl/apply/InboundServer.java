package io.jdbcrepl.apply;

import io.jdbcrepl.config.PeerConfig;
import io.jdbcrepl.log.Grants;
import io.jdbcrepl.log.Purger;
import io.jdbcrepl.log.ReadAhead;
import io.jdbcrepl.log.Subscribers;
import io.jdbcrepl.logging.DriverLog;
import io.jdbcrepl.node.InboundServers;
import io.jdbcrepl.node.Node;
import io.jdbcrepl.node.VendorDriver;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A node's apply side in this JVM (SPEC 4): one daemon thread per peer, named
 * {@code jdbc-repl-apply-<source>-><node>}, and one purging the node's own log now and then. Started
 * by the first connection of a node with {@code repl.peers} (unless {@code repl.apply=false}); at most
 * one per node, URL and schema in a JVM, and across JVMs the appliers' locks let one apply per source.
 */
public final class InboundServer {

    private static final DriverLog LOG = DriverLog.of(InboundServer.class);
    private static final long PURGE_EVERY_MILLIS = 10_000;
    /** The first purge waits until the appliers of a starting cluster have had time to subscribe. */
    private static final long FIRST_PURGE_MILLIS = 60_000;
    private static final Map<String, InboundServer> SERVERS = new ConcurrentHashMap<>();

    static {
        // the nodes' leases pause and resume the servers; the node package sits below this one
        Node.inboundServers(new InboundServers() {
            @Override
            public void resume(Node node) {
                ensureStarted(node);
            }

            @Override
            public Runnable detach(Node node) {
                InboundServer server = InboundServer.detach(node);
                return server == null ? null : server::stop;
            }

            @Override
            public void stopAll() {
                shutdownAll();
            }
        });
    }

    private final Node node;
    private final String key;
    private final List<Applier> appliers = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean stopped;
    /** Why the purge may not delete (a missing privilege, naming the user), or null. */
    private volatile String purgeDenied;

    private InboundServer(Node node, String key) {
        this.node = node;
        this.key = key;
    }

    static String key(Node node) {
        return node.serverKey();
    }

    /** Starts the node's inbound server unless it runs already; never throws (the application's connection comes first). */
    public static InboundServer ensureStarted(Node node) {
        String key = key(node);
        InboundServer running = SERVERS.get(key);
        if (running != null) return running;
        synchronized (SERVERS) {
            running = SERVERS.get(key);
            if (running != null) return running;
            InboundServer server = new InboundServer(node, key);
            server.start();
            SERVERS.put(key, server);
            return server;
        }
    }

    /** The node's inbound server in this JVM, or null. */
    public static InboundServer of(Node node) {
        return SERVERS.get(key(node));
    }

    /**
     * Takes the node's inbound server out of service, if it runs, for the caller to {@link #stop};
     * the next {@link #ensureStarted} starts a new one.
     */
    public static InboundServer detach(Node node) {
        synchronized (SERVERS) {
            InboundServer running = SERVERS.get(key(node));
            // only the node (the user) that started it: the application's idle pool stops no apply user's server
            if (running == null || !running.node.key().equals(node.key())) return null;
            SERVERS.remove(key(node));
            return running;
        }
    }

    /** Stops every inbound server of this JVM and waits a little for their threads, the read-ahead workers' too. */
    public static void shutdownAll() {
        List<InboundServer> all;
        synchronized (SERVERS) {
            all = new ArrayList<>(SERVERS.values());
            SERVERS.clear();
        }
        for (InboundServer s : all) s.stop();
        ReadAhead.shutdownReaders();
    }

    private void start() {
        for (String name : node.config().peers()) {
            PeerConfig peer = node.config().peer(name);
            Applier applier = new Applier(node, peer);
            appliers.add(applier);
            threads.add(daemon(applier, "jdbc-repl-apply-" + peer.name() + "->" + node.name()));
        }
        node.config().join().ifPresent(donor -> threads.add(daemon(() -> joinLoop(donor), "jdbc-repl-join-" + node.name())));
        threads.add(daemon(this::purgeLoop, "jdbc-repl-purge-" + node.name()));
        threads.forEach(Thread::start);
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    /**
     * {@code repl.join}: joins from the donor unless this node has joined already; the appliers wait
     * for it ({@link Join#pending}). A failed try is logged and tried again, the copy going on from
     * the tables already copied.
     */
    private void joinLoop(String donor) {
        long backoff = Outage.FIRST_BACKOFF_MILLIS;
        while (!stopped) {
            try {
                try (Connection local = VendorDriver.open(node.config())) {
                    JoinState.Join join = new JoinState(node.changeLog()).join(local);
                    if (!Join.pending(node, join, local)) {
                        if (join == null) {
                            LOG.info("jdbc:repl: repl.join=" + donor + " has nothing to do: " + node.name() + " has applied"
                                    + " from its peers already (a join is for a new node)");
                        }
                        return;
                    }
                }
                new Join(node, donor, false, p -> {
                    if (p.done()) return;
                    LOG.info("jdbc:repl: " + node.name() + " joining from " + donor + ": " + p.table() + " " + p.rows()
                            + " of " + p.total() + " rows");
                }).run();
                return;
            } catch (SQLException e) {
                if (stopped) return;
                LOG.warn("jdbc:repl: " + node.name() + " could not join from " + donor + " (repl.join), trying again in "
                        + backoff / 1000 + " s: " + e.getMessage());
            }
            try {
                Thread.sleep(backoff);
            } catch (InterruptedException e) {
                return;
            }
            backoff = Math.min(Outage.MAX_BACKOFF_MILLIS, backoff * 2);
        }
    }

    private void purgeLoop() {
        boolean failing = false;
        long wait = FIRST_PURGE_MILLIS;
        while (!stopped) {
            try {
                Thread.sleep(wait);
                wait = PURGE_EVERY_MILLIS;
            } catch (InterruptedException e) {
                return;
            }
            try (Connection local = VendorDriver.open(node.config())) {
                try {
                    purge(node, local);
                    purgeDenied = null;
                } catch (SQLException e) {
                    if (Grants.denied(e)) {
                        purgeDenied = "user " + Subscribers.user(local) + " may not purge this node's log (DELETE on "
                                + node.changeLog().table("repl_log") + ": see install --grants): " + e.getMessage();
                    }
                    throw e;
                }
                failing = false;
            } catch (SQLException | RuntimeException e) {
                if (!failing && !stopped) LOG.warn("jdbc:repl: purging the log of " + node.name() + " failed: " + e);
                failing = true;
            }
        }
    }

    /**
     * Purges on {@code local} (this node's database, autocommit on): the log, then the conflict
     * history older than {@code repl.retention}; returns the LCRs deleted.
     */
    static long purge(Node node, Connection local) throws SQLException {
        long lcrs = Purger.purge(local, node.dialect(), node.changeLog(), node.name(), node.config().retention(),
                node.config().peers());
        ConflictLog.purge(node, local);
        return lcrs;
    }

    /** Stops the threads and closes their connections, waiting up to about three seconds for the threads to end. */
    public void stop() {
        stopped = true;
        SERVERS.remove(key, this);
        appliers.forEach(Applier::stop);
        threads.forEach(Thread::interrupt);
        if (joinAll(2000)) return;
        appliers.forEach(Applier::closeConnections); // unblocks a thread still inside a JDBC call
        joinAll(1000);
    }

    /** Waits for the threads, {@code millis} for all of them together; whether they all ended. */
    private boolean joinAll(long millis) {
        long deadline = System.nanoTime() + millis * 1_000_000L;
        for (Thread t : threads) {
            long left = (deadline - System.nanoTime()) / 1_000_000L;
            try {
                if (left > 0) t.join(left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
            if (t.isAlive()) return false;
        }
        return true;
    }

    /** Blocks until stopped or interrupted (the CLI's apply command). */
    public void join() throws InterruptedException {
        for (Thread t : threads) t.join();
    }

    String purgeDenied() {
        return purgeDenied;
    }

    Applier applier(String peer) {
        for (Applier a : appliers) if (a.source().equalsIgnoreCase(peer)) return a;
        return null;
    }
}
