/**
 * In-page code sent with every browser tool call. The guard runs first, in the same
 * `Runtime.callFunctionOn`, so a call costs one round trip: it checks the page's URL against the
 * domain patterns (the rules of `urlMatchesDomains`) and only then calls the tool. On a mismatch it
 * returns `{ [nonce]: location.href }` instead. For http(s) pages it reads only `location`, whose
 * members pages cannot replace, and compares characters: no String or Array methods, which a
 * page can replace in the main world (only `blob:` documents need a few).
 *
 * Arguments of the sent function: `[args, patterns, nonce]`.
 */
export const DOMAIN_GUARD = String.raw`function(a,t){var l=location,p=l.protocol,h=l.hostname,d=a[1],k=0,j,n,m,o,s,r;if(p=="blob:"){h=l.origin;p=h.slice(0,h.indexOf(":")+1);h=h.slice(p.length+2).replace(/:\d+$/,"")}n=h.length;if(h[n-1]==".")n--;if(p!="http:"&&p!="https:")n=0;for(j=0;j<n;j++)if(h[j]=="."&&(!j||j==n-1||h[j+1]=="."))n=0;for(;k<d.length;k++){s=d[k];o=s[0]=="*"?1:0;m=s.length-o;if(o?n>m&&h[0]!="[":n==m){for(j=0;j<m&&h[n-m+j]==s[o+j];j++);if(j==m)return t(a[0])}}r={};r[a[2]]=l.href;return r}`

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
