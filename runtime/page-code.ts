/**
 * In-page code sent with every browser tool call. The guard runs first, in the same
 * `Runtime.callFunctionOn`, so a call costs one round trip: it checks the page's URL against the
 * domain patterns (the rules of `urlMatchesDomains`) and only then calls the tool. On a mismatch it
 * returns `{ [nonce]: location.href }` instead. It avoids Array methods, which pages replace.
 *
 * Arguments of the sent function: `[args, patterns, nonce]`.
 */
export const DOMAIN_GUARD = String.raw`function(a,t){var l=location,p=l.protocol,h=l.hostname,d=a[1],k=0,s,r;if(p=="blob:"){h=l.origin;p=h.slice(0,h.indexOf(":")+1);h=h.slice(p.length+2).replace(/:\d+$/,"")}if(h.slice(-1)==".")h=h.slice(0,-1);if((p=="http:"||p=="https:")&&("."+h+".").indexOf("..")<0)for(;k<d.length;k++){s=d[k];if(s[0]=="*"?h[0]!="["&&h.length>=s.length&&h.slice(1-s.length)==s.slice(1):h==s)return t(a[0])}r={};r[a[2]]=l.href;return r}`

/**
 * Everything before the tool's own source, on its first line. The wrapper declares no names, so
 * the tool's free identifiers still reach the page's globals.
 */
const WRAP_START = `function(){return(${DOMAIN_GUARD})(arguments,`

/** V8 compiles a `callFunctionOn` declaration as `(` + declaration + `)`: one extra column on line 0. */
export const LINE0_SHIFT = WRAP_START.length + 1

/** The URL stack traces show for a tool. */
export function toolUrl(siteId: string, tool: string): string {
  return `site-skills://${siteId}/${tool}.js`
}

/**
 * The function declaration for `Runtime.callFunctionOn`. Lines of `source` keep their numbers;
 * the sourceURL comment needs a line break after it, or it would swallow V8's closing `)`.
 */
export function wrapToolSource(source: string, url: string): string {
  return `${WRAP_START}${source})}\n//# sourceURL=${url}\n`
}
