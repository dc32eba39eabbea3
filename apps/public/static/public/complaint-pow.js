/* Proof of work of the complaint form (apps/public/pow.py): find a nonce such that
   SHA-256("<challenge>:<nonce>") starts with <bits> zero bits. Served from this site; no third party.
   It starts when the page opens, in small slices so the page stays responsive; the form is sent once done. */
(function () {
  "use strict";

  var K = new Uint32Array([
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
  ]);
  var W = new Uint32Array(64);

  function rotr(x, n) {
    return (x >>> n) | (x << (32 - n));
  }

  /* SHA-256 of an ASCII string; returns the eight 32-bit words of the digest. */
  function sha256(text) {
    var length = text.length;
    var blocks = (length + 9 + 63) >> 6;
    var data = new Uint8Array(blocks * 64);
    for (var i = 0; i < length; i++) data[i] = text.charCodeAt(i) & 0xff;
    data[length] = 0x80;
    var bitLength = length * 8;
    data[data.length - 4] = (bitLength >>> 24) & 0xff;
    data[data.length - 3] = (bitLength >>> 16) & 0xff;
    data[data.length - 2] = (bitLength >>> 8) & 0xff;
    data[data.length - 1] = bitLength & 0xff;
    var h = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
    for (var block = 0; block < blocks; block++) {
      var t, offset = block * 64;
      for (t = 0; t < 16; t++) {
        var p = offset + t * 4;
        W[t] = (data[p] << 24) | (data[p + 1] << 16) | (data[p + 2] << 8) | data[p + 3];
      }
      for (t = 16; t < 64; t++) {
        var x = W[t - 15], y = W[t - 2];
        var s0 = rotr(x, 7) ^ rotr(x, 18) ^ (x >>> 3);
        var s1 = rotr(y, 17) ^ rotr(y, 19) ^ (y >>> 10);
        W[t] = (W[t - 16] + s0 + W[t - 7] + s1) | 0;
      }
      var a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
      for (t = 0; t < 64; t++) {
        var t1 = (k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + W[t]) | 0;
        var t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
        k = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
      }
      h[0] = (h[0] + a) | 0; h[1] = (h[1] + b) | 0; h[2] = (h[2] + c) | 0; h[3] = (h[3] + d) | 0;
      h[4] = (h[4] + e) | 0; h[5] = (h[5] + f) | 0; h[6] = (h[6] + g) | 0; h[7] = (h[7] + k) | 0;
    }
    return h;
  }

  function solves(challenge, nonce, bits) {
    return bits === 0 || sha256(challenge + ":" + nonce)[0] >>> (32 - bits) === 0;
  }

  /* Calls done(nonce) when found, working SLICE hashes at a time between browser tasks. */
  function solve(challenge, bits, done) {
    var SLICE = 4000, nonce = 0;
    (function work() {
      for (var end = nonce + SLICE; nonce < end; nonce++) {
        if (solves(challenge, nonce, bits)) return done(String(nonce));
      }
      setTimeout(work, 0);
    })();
  }

  function hex(words) {
    return words.map(function (w) { return ("00000000" + (w >>> 0).toString(16)).slice(-8); }).join("");
  }

  globalThis.OutorgaPow = { sha256Hex: function (text) { return hex(sha256(text)); }, solves: solves };

  if (typeof document === "undefined") return;
  var form = document.querySelector("form[data-pow-challenge]");
  if (!form) return;
  var status = document.getElementById("pow-status");
  var button = form.querySelector("button[type=submit]");
  var nonceInput = form.querySelector("input[name=pow_nonce]");
  var solved = false, sendWhenSolved = false;

  function say(text) {
    if (status) status.textContent = text;
  }

  solve(form.dataset.powChallenge, parseInt(form.dataset.powBits, 10), function (nonce) {
    nonceInput.value = nonce;
    solved = true;
    say("Verificação concluída: a denúncia pode ser enviada.");
    if (sendWhenSolved) form.submit();
  });

  form.addEventListener("submit", function (event) {
    if (solved) return;
    event.preventDefault();
    sendWhenSolved = true;
    if (button) button.disabled = true;
    say("Verificando que o envio não é automático… a denúncia será enviada em instantes.");
  });
})();
