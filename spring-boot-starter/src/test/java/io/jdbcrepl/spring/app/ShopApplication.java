package io.jdbcrepl.spring.app;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;

/** An application with nothing of its own: what it gets is what the auto-configuration gives. */
@SpringBootConfiguration
@EnableAutoConfiguration
public class ShopApplication {
}
