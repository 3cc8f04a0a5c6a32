package io.jdbcrepl.spring;

import org.springframework.boot.context.properties.ConfigurationProperties;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code jdbc-repl.*} properties: every {@code jdbc-repl.<key>} reaches the driver as the
 * connection property {@code repl.<key>} ({@link DriverKeys}), also keys not declared here
 * ({@code jdbc-repl.loggroup.hr.emp.g1=...}); the driver checks them. The fields below are the
 * common keys, declared so that IDEs complete and document them, and the starter's own
 * {@code jdbc-repl.health.cache}, which stays in the starter.
 */
@ConfigurationProperties(JdbcReplProperties.PREFIX)
public class JdbcReplProperties {

    public static final String PREFIX = "jdbc-repl";

    /** This database's global name (the LCR's source database name); without it the URL is a pure pass-through. */
    private String node;

    /** Peer nodes this node applies changes from (needs node). */
    private List<String> peers = new ArrayList<>();

    /** How this node reaches each peer's database: jdbc-repl.peer.<peer>.url, .user, .password, .schema. */
    private Map<String, Peer> peer = new LinkedHashMap<>();

    /** A properties file with more repl.* keys: file:/path or classpath:name. */
    private String config;

    /** Tables captured, as patterns: *.* every table (the default), hr.*, hr.emp*, orders. */
    private List<String> tables = new ArrayList<>();

    /** Tables never captured, as patterns like tables. */
    private List<String> exclude = new ArrayList<>();

    /** Whether to run the apply side (inbound server) in this JVM; the driver's default: true if peers are set. */
    private Boolean apply;

    /** auto creates the driver's tables when missing (the driver's default); none fails clearly when they are missing. */
    private String install;

    /** Schema of the driver's tables; the driver's default: repl (PostgreSQL, H2), <database>_repl (MariaDB/MySQL). */
    private String schema;

    /** Resolution timestamp column per table (jdbc-repl.timestamp.<table>=<column>), maintained by the driver. */
    private Map<String, String> timestamp = new LinkedHashMap<>();

    /** What the health indicator "repl" reports. */
    private final Health health = new Health();

    public String getNode() {
        return node;
    }

    public void setNode(String node) {
        this.node = node;
    }

    public List<String> getPeers() {
        return peers;
    }

    public void setPeers(List<String> peers) {
        this.peers = peers;
    }

    public Map<String, Peer> getPeer() {
        return peer;
    }

    public void setPeer(Map<String, Peer> peer) {
        this.peer = peer;
    }

    public String getConfig() {
        return config;
    }

    public void setConfig(String config) {
        this.config = config;
    }

    public List<String> getTables() {
        return tables;
    }

    public void setTables(List<String> tables) {
        this.tables = tables;
    }

    public List<String> getExclude() {
        return exclude;
    }

    public void setExclude(List<String> exclude) {
        this.exclude = exclude;
    }

    public Boolean getApply() {
        return apply;
    }

    public void setApply(Boolean apply) {
        this.apply = apply;
    }

    public String getInstall() {
        return install;
    }

    public void setInstall(String install) {
        this.install = install;
    }

    public String getSchema() {
        return schema;
    }

    public void setSchema(String schema) {
        this.schema = schema;
    }

    public Map<String, String> getTimestamp() {
        return timestamp;
    }

    public void setTimestamp(Map<String, String> timestamp) {
        this.timestamp = timestamp;
    }

    public Health getHealth() {
        return health;
    }

    /** One peer's database, as this node reads its log. */
    public static class Peer {

        /** Plain JDBC URL (not jdbc:repl:) of the peer's database. */
        private String url;

        /** User for the peer's database. */
        private String user;

        /** Password for the peer's database. */
        private String password;

        /** Schema of the peer's driver tables, when not where the schema rule puts them. */
        private String schema;

        public String getUrl() {
            return url;
        }

        public void setUrl(String url) {
            this.url = url;
        }

        public String getUser() {
            return user;
        }

        public void setUser(String user) {
            this.user = user;
        }

        public String getPassword() {
            return password;
        }

        public void setPassword(String password) {
            this.password = password;
        }

        public String getSchema() {
            return schema;
        }

        public void setSchema(String schema) {
            this.schema = schema;
        }
    }

    /** The health indicator's settings: {@code lag} is the driver's {@code repl.health.lag}, {@code cache} the starter's own. */
    public static class Health {

        /** Lag above which the health indicator reports DOWN. */
        private Duration lag = Duration.ofSeconds(30);

        /** How long one status reading is reused: each reading asks every peer. */
        private Duration cache = Duration.ofSeconds(3);

        public Duration getLag() {
            return lag;
        }

        public void setLag(Duration lag) {
            this.lag = lag;
        }

        public Duration getCache() {
            return cache;
        }

        public void setCache(Duration cache) {
            this.cache = cache;
        }
    }
}
