package org.topupbatch.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The product catalog, read from {@code sandbox/catalog.json} on the classpath. */
final class SandboxCatalog {

    static final String RESOURCE = "/sandbox/catalog.json";

    private final Map<String, SandboxProduct> bySku;

    private SandboxCatalog(Map<String, SandboxProduct> bySku) {
        this.bySku = Collections.unmodifiableMap(bySku);
    }

    static SandboxCatalog load(ObjectMapper mapper) {
        try (InputStream in = SandboxCatalog.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing classpath resource " + RESOURCE);
            }
            return parse(mapper.readTree(in));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }

    static SandboxCatalog parse(JsonNode root) {
        Map<String, CustomerRule> rules = new HashMap<>();
        Map<String, String> categories = new HashMap<>();
        root.path("brands").fields().forEachRemaining(brand -> {
            List<String> prefixes = new ArrayList<>();
            brand.getValue().path("prefixes").forEach(p -> prefixes.add(p.asText()));
            rules.put(brand.getKey(), new CustomerRule(brand.getValue().path("rule").asText(), prefixes));
            categories.put(brand.getKey(), brand.getValue().path("category").asText());
        });
        Map<String, SandboxProduct> products = new LinkedHashMap<>();
        for (JsonNode p : root.path("products")) {
            String brand = p.path("brand").asText();
            CustomerRule rule = rules.get(brand);
            if (rule == null) {
                throw new IllegalStateException("catalog product " + p.path("product_sku").asText() + " has unknown brand " + brand);
            }
            SandboxProduct product = new SandboxProduct(p.path("product_sku").asText(), p.path("product_name").asText(), brand,
                    categories.get(brand), p.path("price").asLong(), p.path("selling_price").asLong(),
                    p.path("status").asBoolean(), "async".equals(p.path("settle").asText()), p.path("description").asText(), rule);
            if (products.put(product.sku(), product) != null) {
                throw new IllegalStateException("catalog SKU " + product.sku() + " appears twice");
            }
        }
        return new SandboxCatalog(products);
    }

    Optional<SandboxProduct> find(String sku) {
        return Optional.ofNullable(bySku.get(sku));
    }

    /** All products in catalog order. */
    List<SandboxProduct> all() {
        return List.copyOf(bySku.values());
    }
}
