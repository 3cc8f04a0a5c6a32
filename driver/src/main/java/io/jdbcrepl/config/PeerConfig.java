package io.jdbcrepl.config;

import java.util.Objects;

/**
 * A peer this node applies changes from ({@code repl.peer.<peer>.*}).
 *
 * @param name the peer's node name, as listed in repl.peers
 * @param url a plain JDBC URL of the peer's database
 * @param user the user, or null to let the URL or the driver decide
 * @param password the password, or null; never printed
 * @param schema the schema of the peer's driver tables as written ({@code repl.peer.<peer>.schema}),
 *     or null for the rule of {@code repl.schema}
 */
public record PeerConfig(String name, String url, String user, String password, String schema) {

    public PeerConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(url, "url");
    }

    public PeerConfig(String name, String url, String user, String password) {
        this(name, url, user, password, null);
    }

    @Override
    public String toString() {
        return "PeerConfig[name=" + name + ", url=" + ReplUrl.mask(url) + ", user=" + user
                + ", password=" + (password == null ? null : ConfigErrors.MASK) + ", schema=" + schema + "]";
    }
}
