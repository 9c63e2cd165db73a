// Types for dom.js, so TypeScript browser tools can import it.

// A type alias, not an interface: it is returned where the manifest declares a plain object.
export type CardData = {
  id: string
  name: string
  category: string
  price: number
  currency: string
  stock: number
  inStock: boolean
  visible: boolean
  canAddToCart: boolean
}

export function waitFor<T>(check: () => T, options?: { timeoutMs?: number; intervalMs?: number }): Promise<T | null>
export function catalogState(): string | null
export function waitForCatalog(timeoutMs?: number): Promise<string | null>
export function readCartCount(): number | null
export function findCard(productId: string): HTMLLIElement | null
export function readCard(card: HTMLElement): CardData
