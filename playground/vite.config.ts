import { defineConfig } from 'vite'
import { playgroundConfig } from './config'

export default defineConfig(playgroundConfig())
