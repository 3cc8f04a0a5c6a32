package io.jdbcrepl.node;

/**
 * The apply side's inbound servers (SPEC 4) as the nodes' leases see them: a node's last lease
 * pauses its server, the next one resumes it, and {@code Repl.shutdown()} stops them all. The apply
 * side sits above this package and installs itself ({@link Node#inboundServers}) when it loads;
 * before that no server runs, so there is nothing to pause or stop.
 */
public interface InboundServers {

    /** Until the apply side loads: no server runs. */
    InboundServers NONE = new InboundServers() {
        @Override
        public void resume(Node node) {
        }

        @Override
        public Runnable detach(Node node) {
            return null;
        }

        @Override
        public void stopAll() {
        }
    };

    /** Starts the node's server again after {@link #detach} took it out; never throws. */
    void resume(Node node);

    /**
     * Takes the node's running server out of service, under the nodes' lock: what stops it (run
     * outside the lock), or null when none runs.
     */
    Runnable detach(Node node);

    /** Stops every server of this JVM. */
    void stopAll();
}
