package org.topupbatch.sandbox;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.apache.commons.codec.digest.DigestUtils;

/**
 * The Digiflazz dialect's JSON shapes. Every answer is an object under {@code data}, as each buyer page
 * insists (https://developer.digiflazz.com/api/buyer/cek-saldo "Perhatian"). Field names and JSON types follow
 * the pages' tables and examples; docs/digiflazz.md lists them with their sources.
 */
final class DigiflazzJson {

    /** The seller's contacts a transaction answer carries ({@code tele}, {@code wa}): the sandbox's one seller. */
    static final String SELLER_NAME = "Sandbox Seller";
    static final String SELLER_TELEGRAM = "sandboxseller";
    static final String SELLER_WHATSAPP = "081200001111";
    /** Product type: the daftar-harga example's plain products are "Umum". */
    static final String TYPE = "Umum";
    /** No cut-off hours are modelled: the whole day is open. */
    static final String NO_CUT_OFF = "00:00";

    private DigiflazzJson() {
    }

    static ObjectNode wrap(ObjectMapper mapper, com.fasterxml.jackson.databind.JsonNode data) {
        ObjectNode root = mapper.createObjectNode();
        root.set("data", data);
        return root;
    }

    /** Cek Saldo's answer: {@code {"data":{"deposit":N}}}. */
    static ObjectNode deposit(ObjectMapper mapper, long balance) {
        ObjectNode data = mapper.createObjectNode();
        data.put("deposit", balance);
        return wrap(mapper, data);
    }

    /** One entry of Daftar Harga (prepaid), built from a catalog product and the knobs of now. */
    static ObjectNode priceListEntry(ObjectMapper mapper, SandboxProduct p, SandboxConfig config) {
        boolean up = config.available(p);
        ObjectNode node = mapper.createObjectNode();
        node.put("product_name", p.name());
        node.put("category", category(p));
        node.put("brand", p.brand());
        node.put("type", TYPE);
        node.put("seller_name", SELLER_NAME);
        node.put("price", config.tier().priceOf(config.basicPrice(p)));
        node.put("buyer_sku_code", p.sku());
        // a product down (the catalog's or the unavailable knob's) is non-active on both sides: a transaction is rc 43
        node.put("buyer_product_status", up);
        node.put("seller_product_status", up);
        node.put("unlimited_stock", true);
        node.put("stock", 0);
        node.put("multi", true);
        node.put("start_cut_off", NO_CUT_OFF);
        node.put("end_cut_off", NO_CUT_OFF);
        node.put("desc", p.description());
        return node;
    }

    /** The catalog's lower-case categories as Digiflazz writes them ("Pulsa", "Games", "Voucher"). */
    static String category(SandboxProduct p) {
        String c = p.category();
        return c.isEmpty() ? c : c.substring(0, 1).toUpperCase(Locale.ROOT) + c.substring(1);
    }

    /** {@code {"data":{"rc":..,"message":..}}}: how a refused Cek Saldo or Daftar Harga answers. */
    static ObjectNode refusal(ObjectMapper mapper, DigiflazzRc rc) {
        ObjectNode data = mapper.createObjectNode();
        data.put("rc", rc.code());
        data.put("message", rc.meaning());
        return wrap(mapper, data);
    }

    /**
     * A refused Topup (no transaction formed): the request's own fields echoed, the code and its meaning,
     * status Gagal. {@code balance} null when the caller was not authenticated (nothing about the account shown).
     */
    static ObjectNode transactionRefusal(ObjectMapper mapper, DigiflazzRc rc, String refId, String customerNo, String sku,
                                         Long balance) {
        ObjectNode data = mapper.createObjectNode();
        data.put("ref_id", refId == null ? "" : refId);
        data.put("customer_no", customerNo == null ? "" : customerNo);
        data.put("buyer_sku_code", sku == null ? "" : sku);
        data.put("message", rc.meaning());
        data.put("status", rc.status());
        data.put("rc", rc.code());
        if (balance != null) {
            data.put("sn", "");
            data.put("buyer_last_saldo", balance);
            data.put("price", 0);
        }
        return wrap(mapper, data);
    }

    /** The transaction fields of a Topup answer (and of a webhook, which adds trx_id). */
    static ObjectNode transaction(ObjectMapper mapper, SandboxOrders.OrderView view) {
        LedgerEntry e = view.entry();
        DigiflazzRc rc = DigiflazzRc.of(view);
        ObjectNode data = mapper.createObjectNode();
        data.put("ref_id", e.refId());
        data.put("customer_no", e.customerNo());
        data.put("buyer_sku_code", e.productSku());
        data.put("message", rc.meaning());
        data.put("status", rc.status());
        data.put("rc", rc.code());
        data.put("sn", e.serialNumber() == null ? "" : e.serialNumber());
        // the balance after this transaction: a refunded one kept nothing
        data.put("buyer_last_saldo", e.refunded() ? e.balanceBefore() : e.balanceAfter());
        data.put("price", e.price());
        data.put("tele", SELLER_TELEGRAM);
        data.put("wa", SELLER_WHATSAPP);
        return data;
    }

    /** A webhook's body: {@code {"data":{"trx_id":..., the Topup fields}}}. */
    static ObjectNode webhook(ObjectMapper mapper, SandboxOrders.OrderView view) {
        ObjectNode data = mapper.createObjectNode();
        data.put("trx_id", trxId(view.entry()));
        data.setAll(transaction(mapper, view));
        return wrap(mapper, data);
    }

    /**
     * Digiflazz's own id of a transaction (24 hex digits in the webhook page's example): derived from the ref_id
     * and creation time, so it stays the same across restarts and differs for a ref_id made anew after 90 days.
     */
    static String trxId(LedgerEntry e) {
        return DigestUtils.md5Hex((e.refId() + "@" + e.createdAt().toEpochMilli()).getBytes(StandardCharsets.UTF_8))
                .substring(0, 24);
    }
}
